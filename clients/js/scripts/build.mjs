// npm run build: the ESM build (dist/esm) and the CommonJS build (dist/cjs, marked as such by its own
// package.json), both with declarations, by `tsc --strict` (tsconfig.json; the Vitest helper is ESM only, as Vitest
// is). No bundler, no runtime dependency.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

rmSync(join(ROOT, "dist"), { recursive: true, force: true });
for (const project of ["tsconfig.json", "tsconfig.cjs.json"]) {
  const run = spawnSync(process.execPath, [tsc, "-p", join(ROOT, project)], { cwd: ROOT, stdio: "inherit" });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
mkdirSync(join(ROOT, "dist", "cjs"), { recursive: true });
writeFileSync(join(ROOT, "dist", "cjs", "package.json"), '{ "type": "commonjs" }\n');
console.log("built dist/esm and dist/cjs");
