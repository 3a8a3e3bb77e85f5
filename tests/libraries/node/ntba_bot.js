// The library-matrix dialog as a node-telegram-bot-api (0.x) bot: `polling: true`, or the library's own `webHook`
// server. Environment: TELEGRAM_API (the stand's origin), BOT_TOKEN, BOT_MODE (polling or webhook) and, for a
// webhook, WEBHOOK_URL, WEBHOOK_PORT and WEBHOOK_SECRET (set, though the library's server checks the token in the
// path instead). The dialog is tests/libraries/dialog.py's.
"use strict";

// The library's documented switches to its future behaviour (no deprecation notices on sending files).
process.env.NTBA_FIX_319 = "1";
process.env.NTBA_FIX_350 = "1";

const TelegramBot = require("node-telegram-bot-api");

const token = process.env.BOT_TOKEN;
const webhook = process.env.BOT_MODE === "webhook";
const bot = new TelegramBot(token, {
  baseApiUrl: process.env.TELEGRAM_API,
  polling: !webhook,
  // autoOpen: false so that setWebHook below runs once the server listens.
  webHook: webhook ? { host: "127.0.0.1", port: Number(process.env.WEBHOOK_PORT), autoOpen: false } : false,
});

bot.onText(/^\/start/, (msg) =>
  bot.sendMessage(msg.chat.id, "Choose:", {
    reply_markup: { inline_keyboard: [[{ text: "Tap me", callback_data: "tap" }]] },
  }),
);

bot.on("callback_query", async (query) => {
  if (query.data !== "tap") return;
  await bot.answerCallbackQuery(query.id, { text: "Tapped" });
  await bot.editMessageText("You tapped it.", { chat_id: query.message.chat.id, message_id: query.message.message_id });
});

bot.on("photo", (msg) => {
  const photo = bot.getFileStream(msg.photo.at(-1).file_id);
  return bot.sendPhoto(msg.chat.id, photo, { caption: "Your photo back" }, { filename: "photo.png", contentType: "image/png" });
});

bot.onText(/^fmt$/, (msg) => bot.sendMessage(msg.chat.id, "<b>bold</b> and <i>italic</i>", { parse_mode: "HTML" }));

bot.on("polling_error", (err) => console.error("polling_error", err.message));

async function main() {
  if (webhook) {
    await bot.openWebHook();
    await bot.setWebHook(`${process.env.WEBHOOK_URL}/bot${token}`, { secret_token: process.env.WEBHOOK_SECRET });
  }
  const stop = () => (webhook ? bot.closeWebHook() : bot.stopPolling()).then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
