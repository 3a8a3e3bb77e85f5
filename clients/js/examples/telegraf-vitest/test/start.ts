// The bot under test, started for the running test: polling, or (BOT_MODE=webhook) its own webhook server on a
// free port.
import { fileURLToPath } from "node:url";

import { freePort } from "tgfake";
import { startBot } from "tgfake/vitest";

const BOT = fileURLToPath(new URL("../bot.js", import.meta.url));

export async function start(): Promise<void> {
  const env: Record<string, string> = {};
  if (process.env.BOT_MODE === "webhook") {
    const port = await freePort();
    Object.assign(env, { BOT_MODE: "webhook", WEBHOOK_PORT: String(port), WEBHOOK_URL: `http://127.0.0.1:${port}/hook` });
  }
  await startBot(["node", BOT], { env });
}
