// The bot under test, started for the running test: polling, or (BOT_MODE=webhook) its own webhook server on a
// free port.
const path = require("node:path");

const { freePort } = require("tgfake");
const { startBot } = require("tgfake/jest");

const BOT = path.join(__dirname, "..", "bot.js");

async function start() {
  const env = {};
  if (process.env.BOT_MODE === "webhook") {
    const port = await freePort();
    Object.assign(env, { BOT_MODE: "webhook", WEBHOOK_PORT: String(port), WEBHOOK_URL: `http://127.0.0.1:${port}` });
  }
  await startBot(["node", BOT], { env });
}

module.exports = { start };
