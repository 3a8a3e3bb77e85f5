// The library-matrix dialog as a grammY bot: bot.start() long polling, or webhookCallback(bot, "http") on node's
// http server. Environment: TELEGRAM_API (the stand's origin), BOT_TOKEN, BOT_MODE (polling or webhook) and, for a
// webhook, WEBHOOK_URL, WEBHOOK_PORT, WEBHOOK_SECRET. The dialog is tests/libraries/dialog.py's.
"use strict";

const http = require("node:http");
const { Bot, InlineKeyboard, InputFile, webhookCallback } = require("grammy");

const apiRoot = process.env.TELEGRAM_API;
const bot = new Bot(process.env.BOT_TOKEN, { client: { apiRoot } });

bot.command("start", (ctx) => ctx.reply("Choose:", { reply_markup: new InlineKeyboard().text("Tap me", "tap") }));

bot.callbackQuery("tap", async (ctx) => {
  await ctx.answerCallbackQuery({ text: "Tapped" });
  await ctx.editMessageText("You tapped it.");
});

bot.on("message:photo", async (ctx) => {
  const file = await ctx.getFile();
  const url = new URL(`${apiRoot}/file/bot${bot.token}/${file.file_path}`);
  await ctx.replyWithPhoto(new InputFile(url, "photo.png"), { caption: "Your photo back" });
});

bot.hears("fmt", (ctx) => ctx.reply("<b>bold</b> and <i>italic</i>", { parse_mode: "HTML" }));

async function main() {
  if (process.env.BOT_MODE === "webhook") {
    const secretToken = process.env.WEBHOOK_SECRET;
    const server = http.createServer(webhookCallback(bot, "http", { secretToken }));
    await new Promise((resolve) => server.listen(Number(process.env.WEBHOOK_PORT), "127.0.0.1", resolve));
    await bot.api.setWebhook(process.env.WEBHOOK_URL, { secret_token: secretToken });
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
