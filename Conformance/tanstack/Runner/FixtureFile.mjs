// Fixture files: every `<area>/<id>.json` under a specs directory.
// Swift twin: Runner/FixtureFile.swift.

import fs from 'node:fs'
import path from 'node:path'

// Every `<area>/<id>.json` under the specs directory, sorted by ID.
export function listFixtures(specsDir) {
  const out = []
  for (const entry of fs.readdirSync(specsDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue
    for (const f of fs.readdirSync(path.join(specsDir, entry.name))) {
      if (!f.endsWith('.json')) continue
      out.push({ area: entry.name, id: f.slice(0, -5), file: path.join(specsDir, entry.name, f) })
    }
  }
  out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.file < b.file ? -1 : 1))
  return out
}
