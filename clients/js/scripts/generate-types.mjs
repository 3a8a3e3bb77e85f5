// The package's types of the sim API, generated from the stand's own description: GET /sim/openapi.json.
//
//   node scripts/generate-types.mjs            writes src/generated/sim.ts
//   node scripts/generate-types.mjs --check    exits 1 when src/generated/sim.ts differs from what the stand describes
//   --file <path>                              another file to write or check
//
// The document is read from TGFAKE_URL (a running stand) or from a `tgfake --llm` started here on a free port
// (TGFAKE_COMMAND overrides the command, e.g. "python -m tgfake"), so the model's routes are described too.
// Every component schema becomes an exported type, and `SimPaths` maps each route and verb to its query, body and
// answer, which the client's `request` is typed by. No dependency: JSON Schema (OpenAPI 3.1) to TypeScript here.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const FILE = process.argv.indexOf("--file");
const TARGET = FILE > 0 ? process.argv[FILE + 1] : join(HERE, "..", "src", "generated", "sim.ts");
const STARTUP_MS = 60_000;

/** The stand's origin: TGFAKE_URL, or a tgfake started here (stopped by the returned function). */
async function stand() {
  if (process.env.TGFAKE_URL) return { url: process.env.TGFAKE_URL.replace(/\/+$/, ""), stop: async () => {} };
  const [cmd, ...args] = (process.env.TGFAKE_COMMAND || "tgfake").split(/\s+/).filter(Boolean);
  const child = spawn(cmd, [...args, "--addr", "127.0.0.1:0", "--llm"], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${cmd} printed no banner within ${STARTUP_MS / 1000} s:\n${out}`)), STARTUP_MS);
    const read = (chunk) => {
      out += chunk;
      const m = /at (http:\/\/[^\s]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.setEncoding("utf8").on("data", read);
    child.stderr.setEncoding("utf8").on("data", (c) => (out += c));
    child.on("error", (e) => reject(new Error(`cannot start ${cmd} (set TGFAKE_URL or put tgfake on PATH): ${e.message}`)));
    child.on("exit", (code) => reject(new Error(`${cmd} exited with status ${code}:\n${out}`)));
  });
  const stop = () =>
    new Promise((resolve) => {
      child.removeAllListeners("exit");
      child.once("exit", resolve);
      child.kill("SIGTERM");
    });
  return { url, stop };
}

// ---------------------------------------------------------------------------------------------------- schema to TS

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (name) => (IDENT.test(name) ? name : JSON.stringify(name));

function doc(text, indent) {
  if (!text) return "";
  const lines = String(text).replace(/\*\//g, "*\\/").trim().split("\n");
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l ? " " + l.trimEnd() : ""}`).join("\n")}\n${indent} */\n`;
}

function union(parts) {
  const seen = [...new Set(parts)];
  if (seen.includes("unknown")) return "unknown";
  return seen.length ? seen.join(" | ") : "never";
}

function ts(schema, indent = "") {
  if (schema === true || schema === undefined || schema === null) return "unknown";
  if (schema === false) return "never";
  if (schema.$ref) return schema.$ref.split("/").pop();
  if ("const" in schema) return JSON.stringify(schema.const);
  if (schema.enum) return union(schema.enum.map((v) => JSON.stringify(v)));
  const alts = schema.anyOf || schema.oneOf;
  if (alts) return union(alts.map((s) => wrap(ts(s, indent))));
  if (schema.allOf) return schema.allOf.map((s) => wrap(ts(s, indent))).join(" & ");
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (!types.length) return schema.properties ? object(schema, indent) : "unknown";
  return union(
    types.map((t) => {
      switch (t) {
        case "integer":
        case "number":
          return "number";
        case "string":
          return "string";
        case "boolean":
          return "boolean";
        case "null":
          return "null";
        case "array": {
          const item = ts(schema.items, indent);
          return /^[A-Za-z0-9_$"]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
        }
        case "object":
          return object(schema, indent);
        default:
          return "unknown";
      }
    }),
  );
}

function wrap(t) {
  return t.includes("=>") ? `(${t})` : t;
}

function object(schema, indent) {
  const props = schema.properties || {};
  const required = new Set(schema.required || []);
  const extra = schema.additionalProperties;
  const names = Object.keys(props);
  if (!names.length) {
    if (extra && extra !== true) return `{ [key: string]: ${ts(extra, indent)} }`;
    return "{ [key: string]: unknown }";
  }
  const inner = indent + "  ";
  let out = "{\n";
  for (const name of names) {
    out += doc(props[name].description, inner);
    out += `${inner}${key(name)}${required.has(name) ? "" : "?"}: ${ts(props[name], inner)};\n`;
  }
  if (extra === true || (extra && typeof extra === "object")) out += `${inner}[key: string]: unknown;\n`;
  return out + `${indent}}`;
}

function component(name, schema) {
  const body = ts(schema, "");
  const head = doc(schema.description, "");
  if (body.startsWith("{\n")) return `${head}export interface ${name} ${body}\n`;
  return `${head}export type ${name} = ${body};\n`;
}

function jsonSchema(content) {
  if (!content) return undefined;
  const json = content["application/json"];
  if (json) return ts(json.schema);
  if (Object.keys(content).length) return "string";
  return undefined;
}

function paths(document) {
  let out = "";
  for (const [path, item] of Object.entries(document.paths)) {
    out += `  ${JSON.stringify(path)}: {\n`;
    for (const [verb, op] of Object.entries(item)) {
      const query = (op.parameters || []).filter((p) => p.in === "query");
      const q = query.length
        ? `{ ${query.map((p) => `${key(p.name)}?: ${ts(p.schema, "      ")}`).join("; ")} }`
        : "Record<string, never>";
      const body = jsonSchema(op.requestBody?.content) ?? "undefined";
      const answer = jsonSchema(op.responses?.["200"]?.content) ?? "unknown";
      out += doc(op.summary || op.description, "    ");
      out += `    ${verb}: { query: ${q}; body: ${body}; answer: ${answer} };\n`;
    }
    out += "  };\n";
  }
  return out;
}

export function generate(document) {
  let out =
    "// Generated by scripts/generate-types.mjs from the stand's GET /sim/openapi.json (tgfake --llm): do not edit.\n" +
    "// npm run generate rewrites it; npm run check-types (and tests/jsclient) fail when it is stale.\n" +
    "/* eslint-disable */\n\n";
  for (const [name, schema] of Object.entries(document.components?.schemas || {})) out += component(name, schema) + "\n";
  out += "/** Every sim route by path and verb: its query parameters, JSON body and 200 answer. */\n";
  out += `export interface SimPaths {\n${paths(document)}}\n`;
  return out;
}

async function main() {
  const check = process.argv.includes("--check");
  const { url, stop } = await stand();
  let document;
  try {
    const resp = await fetch(`${url}/sim/openapi.json`);
    if (!resp.ok) throw new Error(`GET ${url}/sim/openapi.json answered ${resp.status}`);
    document = await resp.json();
  } finally {
    await stop();
  }
  const text = generate(document);
  if (!check) {
    writeFileSync(TARGET, text);
    console.log(`wrote ${TARGET}`);
    return;
  }
  let old = "";
  try {
    old = readFileSync(TARGET, "utf8");
  } catch {
    // missing: stale
  }
  if (old === text) {
    console.log(`${TARGET} matches the stand's /sim/openapi.json`);
    return;
  }
  const a = old.split("\n");
  const b = text.split("\n");
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  console.error(
    `${TARGET} is stale against ${url}/sim/openapi.json (run npm run generate in clients/js):\n` +
      `  line ${i + 1} is:        ${a[i] ?? "(end of file)"}\n  the stand describes: ${b[i] ?? "(end of file)"}`,
  );
  process.exit(1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(2);
  });
}
