// Telegraf's webhook examples (webhook.ts, express.ts, fastify.ts, koa.ts and google-cloud-function.ts): text is
// answered "Hello", /hello "Hello, friend!", /image with a photo Telegraf streams; updates arrive at
// bot.webhookCallback on the secret path /telegraf/<secretPathComponent()>, on node's http server (the examples'
// servers are express, fastify, koa or a cloud function; launch({ webhook }) and createWebhook() build an https://
// URL from a domain, and the stand delivers to a loopback http server).
"use strict";
const http = require("node:http");
const { Telegraf } = require("telegraf");

const bot = new Telegraf(process.env.BOT_TOKEN, { telegram: { apiRoot: process.env.TELEGRAM_API } });
bot.command("hello", (ctx) => ctx.reply("Hello, friend!"));
bot.command("image", (ctx) => ctx.replyWithPhoto({ url: process.env.IMAGE_URL }));
bot.on("text", (ctx) => ctx.reply("Hello"));

const path = `/telegraf/${bot.secretPathComponent()}`;
const server = http.createServer(bot.webhookCallback(path));
server.listen(Number(process.env.WEBHOOK_PORT), "127.0.0.1", async () => {
  await bot.telegram.setWebhook(`http://127.0.0.1:${process.env.WEBHOOK_PORT}${path}`);
  console.log("Listening on port", process.env.WEBHOOK_PORT);
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
