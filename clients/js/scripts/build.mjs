// npm run build: the ESM build (dist/esm) and the CommonJS build (dist/cjs, marked as such by its own
// package.json), both with declarations, by `tsc --strict` (tsconfig.json; the Vitest helper is ESM only, as Vitest
// is). No bundler, no runtime dependency.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

rmSync(join(ROOT, "dist"), { recursive: true, force: true });
// both builds at once: each is one tsc process, mostly CPU
const builds = ["tsconfig.json", "tsconfig.cjs.json"].map(
  (project) =>
    new Promise((resolve) =>
      spawn(process.execPath, [tsc, "-p", join(ROOT, project)], { cwd: ROOT, stdio: "inherit" }).on("exit", resolve),
    ),
);
const codes = await Promise.all(builds);
const failed = codes.find((code) => code !== 0);
if (failed !== undefined) process.exit(failed ?? 1);
mkdirSync(join(ROOT, "dist", "cjs"), { recursive: true });
writeFileSync(join(ROOT, "dist", "cjs", "package.json"), '{ "type": "commonjs" }\n');
console.log("built dist/esm and dist/cjs");
