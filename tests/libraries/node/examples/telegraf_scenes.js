// Telegraf's scenes examples (scenes.ts and its five custom context / session variants, which differ only in the
// types and in the extra session fields set to defaults): a greeter scene and an echo scene in a Stage with a
// ttl, the commands that enter them, leave by /back, and a catch-all outside any scene.
"use strict";
const { Scenes, session, Telegraf } = require("telegraf");

const { enter, leave } = Scenes.Stage;

const greeterScene = new Scenes.BaseScene("greeter");
greeterScene.enter((ctx) => ctx.reply("Hi"));
greeterScene.leave((ctx) => ctx.reply("Bye"));
greeterScene.hears("hi", enter("greeter"));
greeterScene.on("message", (ctx) => ctx.replyWithMarkdown("Send `hi`"));

const echoScene = new Scenes.BaseScene("echo");
echoScene.enter((ctx) => ctx.reply("echo scene"));
echoScene.leave((ctx) => ctx.reply("exiting echo scene"));
echoScene.command("back", leave());
echoScene.on("text", (ctx) => ctx.reply(ctx.message.text));
echoScene.on("message", (ctx) => ctx.reply("Only text messages please"));

const bot = new Telegraf(process.env.BOT_TOKEN, { telegram: { apiRoot: process.env.TELEGRAM_API } });
const stage = new Scenes.Stage([greeterScene, echoScene], { ttl: 10 });
bot.use(session());
bot.use(stage.middleware());
bot.use((ctx, next) => {
  ctx.myContextProp ??= "";
  ctx.session.mySessionProp ??= 0;
  ctx.scene.session.mySceneSessionProp ??= 0;
  return next();
});
bot.command("greeter", (ctx) => ctx.scene.enter("greeter"));
bot.command("echo", (ctx) => ctx.scene.enter("echo"));
bot.on("message", (ctx) => ctx.reply("Try /echo or /greeter"));
bot.launch();
