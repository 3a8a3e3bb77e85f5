// A Telegraf bot, tested with Vitest through the tgfake client (test/*.test.ts): a counter on an inline keyboard,
// a greeting in groups, answers from an OpenAI model, and Telegram's flood control waited out around callApi.
// Environment: TELEGRAM_API, BOT_TOKEN, OPENAI_BASE_URL, OPENAI_API_KEY (startBot gives them) and, in webhook mode,
// BOT_MODE=webhook with WEBHOOK_PORT and WEBHOOK_URL (served by Telegraf's webhookCallback on node's http server:
// launch({ webhook }) always builds an https:// URL).
"use strict";

const http = require("node:http");
const { Markup, Telegraf, Telegram } = require("telegraf");
const { message } = require("telegraf/filters");
const { OpenAI } = require("openai");

// Telegraf resolves "./bot<token>/<method>" against apiRoot as a URL: a session's origin (http://host/s/1) needs
// its trailing slash to keep the /s/1.
const apiRoot = process.env.TELEGRAM_API.replace(/\/?$/, "/");
const bot = new Telegraf(process.env.BOT_TOKEN, { telegram: { apiRoot } });
const model = new OpenAI({ baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY, maxRetries: 0 });
const counts = new Map();
const keyboard = () => Markup.inlineKeyboard([Markup.button.callback("Count", "count")]);

// Flood control: a 429 names how long to wait (parameters.retry_after); wait that long and call again, once.
// On the prototype: Telegraf gives each update's context a Telegram of its own.
const callApi = Telegram.prototype.callApi;
Telegram.prototype.callApi = async function (method, payload, options) {
  try {
    return await callApi.call(this, method, payload, options);
  } catch (err) {
    const wait = err.response?.parameters?.retry_after;
    if (err.code !== 429 || wait === undefined) throw err;
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    return callApi.call(this, method, payload, options);
  }
};

bot.start((ctx) => ctx.reply("Tap to count.", keyboard()));

bot.action("count", async (ctx) => {
  const key = `${ctx.chat.id}:${ctx.callbackQuery.message.message_id}`;
  const n = (counts.get(key) ?? 0) + 1;
  counts.set(key, n);
  await ctx.answerCbQuery(`Counted ${n}`);
  await ctx.editMessageText(`Count: ${n}`, keyboard());
});

bot.command("hello", (ctx) => ctx.reply(`Hello, ${ctx.chat.type === "private" ? ctx.from.first_name : ctx.chat.title}!`));

bot.on(message("text"), async (ctx) => {
  const answer = await model.chat.completions.create({
    model: "gpt-4o-mini",
    messages: [
      { role: "system", content: "You are a weather bot." },
      { role: "user", content: ctx.message.text },
    ],
  });
  await ctx.reply(answer.choices[0].message.content ?? "(no answer)");
});

bot.catch((err) => console.error("handler error:", err));

async function main() {
  if (process.env.BOT_MODE === "webhook") {
    const server = http.createServer(bot.webhookCallback("/hook"));
    await new Promise((resolve) => server.listen(Number(process.env.WEBHOOK_PORT), "127.0.0.1", resolve));
    await bot.telegram.setWebhook(process.env.WEBHOOK_URL);
    const stop = () => server.close(() => process.exit(0));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  } else {
    process.once("SIGINT", () => bot.stop("SIGINT"));
    process.once("SIGTERM", () => bot.stop("SIGTERM"));
    await bot.launch();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
