// A typed tool's mistakes are compile errors: the handler's arguments are inferred from a zod
// schema and from a JSON Schema written `as const`, and an output schema types what it returns.

import * as z from "zod";
import { defineTool } from "toolnexus-contract/runtime";

const Weather = z.object({ city: z.string(), days: z.number().int().optional() });

export const misspelled = defineTool("w", "", Weather, (args) => args.ctiy); // expect-error TS2339

export const wrongType = defineTool("w", "", Weather, (args) => args.city.toFixed(1)); // expect-error TS2551

export const maybe = defineTool("w", "", Weather, (args) => args.days.toFixed(1)); // expect-error TS18048

const SCHEMA = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } as const;

export const literal = defineTool("n", "", SCHEMA, (args) => args.n.toUpperCase()); // expect-error TS2339

export const rule = defineTool("n", "", SCHEMA, () => "", { needsApproval: (args) => args.m > 1 }); // expect-error TS2339

export const output = defineTool("o", "", SCHEMA, () => ({ total: "6" }), { outputSchema: z.object({ total: z.number() }) }); // expect-error TS2345
