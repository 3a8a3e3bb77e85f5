// Telegraf's modules examples as the `telegraf` CLI runs them: echo-bot.ts's Composer (/settings sets the commands,
// /help lists them back with getMyCommands, /start rolls a dice, any other message is copied with a keyboard) used
// by a Telegraf, and hello-bot.ts's one middleware answering what the composer passes on (nothing here: the last
// handler takes every message, so hello runs only for other updates, as in the module).
"use strict";
const { Telegraf, Composer, Markup } = require("telegraf");

const composer = new Composer();
composer.settings(async (ctx) => {
  await ctx.telegram.setMyCommands([
    { command: "/foo", description: "foo description" },
    { command: "/bar", description: "bar description" },
    { command: "/baz", description: "baz description" },
  ]);
  return ctx.reply("Ok");
});
composer.help(async (ctx) => {
  const commands = await ctx.getMyCommands();
  const info = commands.reduce((acc, val) => `${acc}/${val.command} - ${val.description}\n`, "");
  return ctx.reply(info);
});
const keyboard = Markup.inlineKeyboard([
  Markup.button.url("❤️", "http://telegraf.js.org"),
  Markup.button.callback("Delete", "delete"),
]);
composer.start((ctx) => ctx.replyWithDice());
composer.help((ctx) => ctx.reply("Help message"));
composer.on("message", (ctx) => ctx.copyMessage(ctx.message.chat.id, keyboard));
composer.action("delete", (ctx) => ctx.deleteMessage());

const hello = (ctx) => ctx.reply("Hello!");

const bot = new Telegraf(process.env.BOT_TOKEN, { telegram: { apiRoot: process.env.TELEGRAM_API } });
bot.use(composer);
bot.use(hello);
bot.launch();
