// Fixture errors: a FixtureError names the JSON path and what was expected (an ERROR, not a
// FAIL), and the shape checks every decoder uses.
// Swift twin: Model/Scenario.swift (`FixtureError`), Decoder/FixtureValidator.swift (`object`,
// `onlyMembers`), Decoder/JSONPath.swift.

export class FixtureError extends Error {
  constructor(jpath, expected) {
    super(`${jpath}: ${expected}`)
    this.jpath = jpath
    this.expected = expected
  }
}
export const fail = (jpath, expected) => {
  throw new FixtureError(jpath, expected)
}
export const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)
export const isInt = (v) => typeof v === 'number' && Number.isInteger(v)
export const typeName = (v) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v)

export function expectObject(v, jpath, allowed, what = 'an object') {
  if (!isObj(v)) fail(jpath, `expected ${what}, found ${typeName(v)}`)
  if (allowed) {
    for (const k of Object.keys(v)) {
      if (!allowed.includes(k)) fail(`${jpath}.${k}`, `unknown member; expected one of ${allowed.join(', ')}`)
    }
  }
  return v
}
