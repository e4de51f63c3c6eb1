// Where things are, from the compiled tests in tests/typescript/.cache/.

import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const HERE = fileURLToPath(new URL("../", import.meta.url));
export const EXAMPLES = fileURLToPath(new URL("../../../idl/examples/", import.meta.url));
export const PACKAGE = fileURLToPath(new URL("../../../support/typescript/", import.meta.url));
