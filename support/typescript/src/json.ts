// codegen: package

/**
 * JSON as the wire reads and writes it, in three parts: its values (`json/values.ts`), reading
 * (`json/read.ts`) and writing (`json/write.ts`).
 *
 * @packageDocumentation
 */

export {
  JsonNumber,
  childPath,
  describe,
  isPlainObject,
  keepOrder,
  orderedKeys,
  setKey,
  spellNumber,
  MAX_DEPTH,
  type JsonObject,
  type JsonValue,
} from "./json/values.js";
export { readJson, readJsonFully } from "./json/read.js";
export { tooDeep, tooDeepOrCycle, writeJson, writeJsonFully } from "./json/write.js";
