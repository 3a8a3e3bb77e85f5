// node-telegram-bot-api 0.x's examples/game/game.js: /start sends the game TELEGRAM_GAMENAME, a tap on its Play
// button (a callback_query with game_short_name) is answered with the game's url, and a server renders the HTML
// game at "/". Express and ejs are not among the pinned packages, so node's http module serves the page; the
// example's public URL is that server's loopback address.
"use strict";
const http = require("node:http");

const TOKEN = process.env.BOT_TOKEN;
const gameName = process.env.TELEGRAM_GAMENAME;
const port = Number(process.env.GAME_PORT);
const url = `http://127.0.0.1:${port}/`;

const TelegramBot = require("node-telegram-bot-api");

const bot = new TelegramBot(TOKEN, { polling: true, baseApiUrl: process.env.TELEGRAM_API });

// Matches /start
bot.onText(/\/start/, function onPhotoText(msg) {
  bot.sendGame(msg.chat.id, gameName);
});

// Handle callback queries
bot.on("callback_query", function onCallbackQuery(callbackQuery) {
  console.log("GAME " + JSON.stringify({ game_short_name: callbackQuery.game_short_name, data: callbackQuery.data }));
  bot.answerCallbackQuery(callbackQuery.id, { url });
});

// Render the HTML game
const app = http.createServer((req, res) => {
  res.writeHead(200, { "Content-Type": "text/html" }).end("<html><body>The game</body></html>");
});

// Bind server to port
app.listen(port, "127.0.0.1", () => {
  console.log(`Server is listening at http://localhost:${port}`);
});

process.on("unhandledRejection", (err) => {
  console.error("UNHANDLED", err.message);
  process.exit(1);
});
bot.on("polling_error", (err) => console.error("polling_error", err.message));
process.once("SIGTERM", () => bot.stopPolling().then(() => app.close(() => process.exit(0))));
