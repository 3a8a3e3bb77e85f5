// node-telegram-bot-api 0.x's examples/webhook/express.js: a bot without polling tells Telegram its webhook
// (setWebHook(`${url}/bot${TOKEN}`)), a server hands each POSTed update to bot.processUpdate and answers 200, and
// every message is answered "I am alive!". Express is not among the pinned packages, so the same route is served by
// node's http module with the body parsed as express.json() does; the example's https://<PUBLIC-URL> is the
// loopback address of that server (the stand delivers to loopback).
"use strict";
const http = require("node:http");

const TOKEN = process.env.BOT_TOKEN;
const port = Number(process.env.WEBHOOK_PORT);
const url = `http://127.0.0.1:${port}`;

const TelegramBot = require("node-telegram-bot-api");

// No need to pass any parameters as we will handle the updates with our server
const bot = new TelegramBot(TOKEN, { baseApiUrl: process.env.TELEGRAM_API });

const app = http.createServer((req, res) => {
  // We are receiving updates at the route below!
  if (req.method !== "POST" || req.url !== `/bot${TOKEN}`) {
    res.writeHead(404).end();
    return;
  }
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    bot.processUpdate(JSON.parse(body));
    res.writeHead(200).end("OK");
  });
});

// Start the server, then inform Telegram of the new webhook (the example sets it first; its server is public).
app.listen(port, "127.0.0.1", () => {
  console.log(`Express server is listening on ${port}`);
  bot.setWebHook(`${url}/bot${TOKEN}`);
});

// Just to ping!
bot.on("message", (msg) => {
  bot.sendMessage(msg.chat.id, "I am alive!");
});

process.on("unhandledRejection", (err) => {
  console.error("UNHANDLED", err.message);
  process.exit(1);
});
process.once("SIGTERM", () => app.close(() => process.exit(0)));
