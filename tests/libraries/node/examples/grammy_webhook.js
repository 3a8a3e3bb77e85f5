// grammY's fastify example: /start and text answered, updates through webhookCallback at /<token> with a secret
// token, the webhook set once the server listens. Here node's http server and webhookCallback(bot, "http") stand in
// for fastify (not among the pinned packages) and the stand's loopback address for the ngrok tunnel.
"use strict";
const http = require("node:http");
const { Bot, webhookCallback } = require("grammy");

const { BOT_TOKEN: TOKEN, WEBHOOK_PORT: PORT } = process.env;
const SECRET_TOKEN = "grammy-secret";
const bot = new Bot(TOKEN, { client: { apiRoot: process.env.TELEGRAM_API } });
bot.command("start", (ctx) => ctx.reply("Hi, I'm run faster than you :)"));
bot.on("message:text", (ctx) => ctx.reply(`You said: ${ctx.message.text}`));

const handle = webhookCallback(bot, "http", { secretToken: SECRET_TOKEN });
const server = http.createServer((req, res) => {
  if (req.method === "POST" && req.url === `/${TOKEN}`) return handle(req, res);
  res.writeHead(404).end();
});
server.listen(Number(PORT), "127.0.0.1", async () => {
  await bot.api.setWebhook(`http://127.0.0.1:${PORT}/${TOKEN}`, { secret_token: SECRET_TOKEN });
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
