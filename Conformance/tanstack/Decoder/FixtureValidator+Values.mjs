// Fixture values: plain data with `{"$undefined": true}`, and the recipe and `$undefined` markers.
// Swift twin: Decoder/FixtureValidator+Values.swift (checking), Interpreter/ArgumentReader.swift
// (`fixtureData`, `isUndefinedMarker`, `recipe`).

import { fail, isObj } from '../Model/FixtureError.mjs'

// Plain data: `{"$undefined":true}` anywhere stands for undefined; recipes are not allowed.
export function decodeData(v, jpath) {
  if (Array.isArray(v)) return v.map((x, i) => decodeData(x, `${jpath}[${i}]`))
  if (isObj(v)) {
    if ('$undefined' in v) {
      if (v.$undefined !== true || Object.keys(v).length !== 1) fail(jpath, 'expected exactly {"$undefined": true}')
      return undefined
    }
    if ('$fn' in v) fail(jpath, 'a recipe ($fn) is not allowed here; expected plain data')
    const out = {}
    for (const k of Object.keys(v)) out[k] = decodeData(v[k], `${jpath}.${k}`)
    return out
  }
  return v
}

export function isUndefinedMarker(v) {
  return isObj(v) && Object.keys(v).length === 1 && v.$undefined === true
}

export function isRecipe(v) {
  return isObj(v) && '$fn' in v
}
