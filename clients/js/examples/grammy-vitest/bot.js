// A grammY bot, tested with Vitest through the tgfake client (test/*.test.ts): a counter on an inline keyboard,
// a greeting in groups, answers from an OpenAI model, and Telegram's flood control handled by an API transformer.
// Environment: TELEGRAM_API, BOT_TOKEN, OPENAI_BASE_URL, OPENAI_API_KEY (startBot gives them) and, in webhook mode,
// BOT_MODE=webhook with WEBHOOK_PORT and WEBHOOK_URL.
"use strict";

const http = require("node:http");
const { Bot, InlineKeyboard, webhookCallback } = require("grammy");
const { OpenAI } = require("openai");

const bot = new Bot(process.env.BOT_TOKEN, { client: { apiRoot: process.env.TELEGRAM_API } });
const model = new OpenAI({ baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY, maxRetries: 0 });
const counts = new Map();

// Flood control: a 429 names how long to wait (parameters.retry_after); wait that long and call again, once.
bot.api.config.use(async (prev, method, payload, signal) => {
  const res = await prev(method, payload, signal);
  const wait = res.ok ? undefined : res.parameters?.retry_after;
  if (res.error_code !== 429 || wait === undefined) return res;
  await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  return prev(method, payload, signal);
});

bot.command("start", (ctx) =>
  ctx.reply("Tap to count.", { reply_markup: new InlineKeyboard().text("Count", "count") }),
);

bot.callbackQuery("count", async (ctx) => {
  const key = `${ctx.chat.id}:${ctx.callbackQuery.message.message_id}`;
  const n = (counts.get(key) ?? 0) + 1;
  counts.set(key, n);
  await ctx.answerCallbackQuery({ text: `Counted ${n}` });
  await ctx.editMessageText(`Count: ${n}`, { reply_markup: new InlineKeyboard().text("Count", "count") });
});

bot.command("hello", (ctx) => ctx.reply(`Hello, ${ctx.chat.type === "private" ? ctx.from.first_name : ctx.chat.title}!`));

bot.on("message:text", async (ctx) => {
  const answer = await model.chat.completions.create({
    model: "gpt-4o-mini",
    messages: [
      { role: "system", content: "You are a weather bot." },
      { role: "user", content: ctx.message.text },
    ],
  });
  await ctx.reply(answer.choices[0].message.content ?? "(no answer)");
});

bot.catch((err) => console.error("handler error:", err.error));

async function main() {
  if (process.env.BOT_MODE === "webhook") {
    const server = http.createServer(webhookCallback(bot, "http"));
    await new Promise((resolve) => server.listen(Number(process.env.WEBHOOK_PORT), "127.0.0.1", resolve));
    await bot.api.setWebhook(process.env.WEBHOOK_URL);
    const stop = () => server.close(() => process.exit(0));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  } else {
    process.once("SIGINT", () => bot.stop());
    process.once("SIGTERM", () => bot.stop());
    await bot.start();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
