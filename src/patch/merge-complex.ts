import { isJsonObject } from '../json/json-value.js';

type Json = Record<string, unknown>;

/**
 * Returns a copy of a complex value with the members of `patch` set, an `undefined` member
 * removed; `undefined` when nothing is left (an empty complex value is unassigned).
 */
export function mergeComplex(current: unknown, patch: unknown): Json | undefined {
  const out: Json = isJsonObject(current) ? { ...current } : {};
  if (isJsonObject(patch)) {
    for (const k of Object.keys(patch)) {
      if (patch[k] === undefined) delete out[k];
      else out[k] = patch[k];
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
