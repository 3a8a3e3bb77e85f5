// Telegraf's keyboard-bot: Telegraf.log() of every update, reply keyboards (one-time and resized, rows, contact and
// location requests, wrap by a function and by columns), inline keyboards (a hidden button), a photo with a caption
// and buttons that edit the caption plain and in Markdown, and a catch-all action answering the callback.
// The caption photo is streamed by Telegraf from CAPTION_URL (a local server: the example's picsum.photos).
"use strict";
const { Telegraf, Markup } = require("telegraf");

const bot = new Telegraf(process.env.BOT_TOKEN, { telegram: { apiRoot: process.env.TELEGRAM_API } });
bot.use(Telegraf.log());

bot.command("onetime", (ctx) =>
  ctx.reply("One time keyboard", Markup.keyboard(["/simple", "/inline", "/pyramid"]).oneTime().resize()),
);
bot.command("custom", async (ctx) => {
  return await ctx.reply(
    "Custom buttons keyboard",
    Markup.keyboard([
      ["🔍 Search", "😎 Popular"],
      ["☸ Setting", "📞 Feedback"],
      ["📢 Ads", "⭐️ Rate us", "👥 Share"],
    ])
      .oneTime()
      .resize(),
  );
});
bot.hears("🔍 Search", (ctx) => ctx.reply("Yay!"));
bot.hears("📢 Ads", (ctx) => ctx.reply("Free hugs. Call now!"));
bot.command("special", (ctx) => {
  return ctx.reply(
    "Special buttons keyboard",
    Markup.keyboard([
      Markup.button.contactRequest("Send contact"),
      Markup.button.locationRequest("Send location"),
    ]).resize(),
  );
});
bot.command("pyramid", (ctx) => {
  return ctx.reply(
    "Keyboard wrap",
    Markup.keyboard(["one", "two", "three", "four", "five", "six"], {
      wrap: (btn, index, currentRow) => currentRow.length >= (index + 1) / 2,
    }),
  );
});
bot.command("simple", (ctx) => {
  return ctx.replyWithHTML("<b>Coke</b> or <i>Pepsi?</i>", Markup.keyboard(["Coke", "Pepsi"]));
});
bot.command("inline", (ctx) => {
  return ctx.reply("<b>Coke</b> or <i>Pepsi?</i>", {
    parse_mode: "HTML",
    ...Markup.inlineKeyboard([Markup.button.callback("Coke", "Coke"), Markup.button.callback("Pepsi", "Pepsi")]),
  });
});
bot.command("random", (ctx) => {
  return ctx.reply(
    "random example",
    Markup.inlineKeyboard([
      Markup.button.callback("Coke", "Coke"),
      Markup.button.callback("Dr Pepper", "Dr Pepper", process.env.HIDE_PEPPER === "1"),
      Markup.button.callback("Pepsi", "Pepsi"),
    ]),
  );
});
bot.command("caption", (ctx) => {
  return ctx.replyWithPhoto(
    { url: process.env.CAPTION_URL },
    {
      caption: "Caption",
      parse_mode: "Markdown",
      ...Markup.inlineKeyboard([Markup.button.callback("Plain", "plain"), Markup.button.callback("Italic", "italic")]),
    },
  );
});
bot.hears(/\/wrap (\d+)/, (ctx) => {
  return ctx.reply(
    "Keyboard wrap",
    Markup.keyboard(["one", "two", "three", "four", "five", "six"], { columns: parseInt(ctx.match[1]) }),
  );
});
bot.action("Dr Pepper", (ctx, next) => {
  return ctx.reply("👍").then(() => next());
});
bot.action("plain", async (ctx) => {
  await ctx.answerCbQuery();
  await ctx.editMessageCaption(
    "Caption",
    Markup.inlineKeyboard([Markup.button.callback("Plain", "plain"), Markup.button.callback("Italic", "italic")]),
  );
});
bot.action("italic", async (ctx) => {
  await ctx.answerCbQuery();
  await ctx.editMessageCaption("_Caption_", {
    parse_mode: "Markdown",
    ...Markup.inlineKeyboard([Markup.button.callback("Plain", "plain"), Markup.button.callback("* Italic *", "italic")]),
  });
});
bot.action(/.+/, (ctx) => {
  return ctx.answerCbQuery(`Oh, ${ctx.match[0]}! Great choice`);
});
bot.launch();
