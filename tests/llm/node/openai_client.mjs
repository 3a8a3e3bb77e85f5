// The official openai Node SDK, unmodified, against the scripted model: every OpenAI route, streamed and not.
// Environment: OPENAI_BASE_URL (the stand's /v1). Prints one JSON object of what the SDK returned;
// tests/llm/test_llm_node.py scripts the model and checks each value. Each tool turn runs under its own
// X-Tgfake-Profile, so the chat and the Responses turns have their own sequence cursors.
import OpenAI, { toFile } from "openai";

const client = new OpenAI({ baseURL: process.env.OPENAI_BASE_URL, apiKey: "sk-test", maxRetries: 0 });
const model = "gpt-4o-mini";
const user = (content) => [{ role: "user", content }];
const profile = (name) => ({ headers: { "X-Tgfake-Profile": name } });
const weather = { type: "function", function: { name: "get_weather", parameters: { type: "object" } } };
const out = {};

// Chat completions: whole, streamed chunk by chunk, and a tool turn through the stream helper.
const chat = await client.chat.completions.create({ model, messages: user("ping") });
out.chat = { content: chat.choices[0].message.content, requestId: chat._request_id };
let streamed = "";
for await (const chunk of await client.chat.completions.create({ model, messages: user("count"), stream: true })) {
  streamed += chunk.choices[0]?.delta?.content ?? "";
}
out.chatStream = streamed;
const asked = user("weather in Paris?");
const turn = await client.chat.completions
  .stream({ model, messages: asked, tools: [weather] }, profile("chat"))
  .finalChatCompletion();
const call = turn.choices[0].message.tool_calls[0];
const answer = await client.chat.completions.create(
  {
    model,
    messages: [...asked, turn.choices[0].message, { role: "tool", tool_call_id: call.id, content: "sunny" }],
    tools: [weather],
  },
  profile("chat"),
);
out.chatTool = { name: call.function.name, arguments: call.function.arguments, answer: answer.choices[0].message.content };

// The Responses API: whole, streamed events, and a tool turn continued with previous_response_id.
const response = await client.responses.create({ model, input: "ping" });
out.responses = { text: response.output_text, id: response.id };
out.responsesStored = (await client.responses.retrieve(response.id)).output_text;
const kinds = [];
let deltas = "";
for await (const event of await client.responses.create({ model, input: "count", stream: true })) {
  kinds.push(event.type);
  if (event.type === "response.output_text.delta") deltas += event.delta;
}
out.responsesStream = { text: deltas, first: kinds[0], last: kinds.at(-1) };
const tools = [{ type: "function", name: "get_weather", parameters: { type: "object" } }];
const first = await client.responses
  .stream({ model, input: "weather in Paris?", tools }, profile("responses"))
  .finalResponse();
const fc = first.output.find((item) => item.type === "function_call");
const second = await client.responses.create(
  {
    model,
    previous_response_id: first.id,
    input: [{ type: "function_call_output", call_id: fc.call_id, output: "sunny" }],
    tools,
  },
  profile("responses"),
);
out.responsesTool = { name: fc.name, arguments: fc.arguments, answer: second.output_text };

// Legacy completions, whole and streamed.
out.completions = (await client.completions.create({ model, prompt: "ping" })).choices[0].text;
let legacy = "";
for await (const chunk of await client.completions.create({ model, prompt: "count", stream: true })) {
  legacy += chunk.choices[0]?.text ?? "";
}
out.completionsStream = legacy;

// The other routes.
const vectors = await client.embeddings.create({ model: "text-embedding-3-small", input: ["red apple", "red car"] });
out.embeddings = vectors.data.map((item) => item.embedding.length);
out.moderation = (await client.moderations.create({ input: "a knife" })).results[0].categories.violence;
out.model = (await client.models.retrieve("gpt-x")).id;
const image = await client.images.generate({ prompt: "a cat", size: "256x256", response_format: "b64_json" });
out.image = Buffer.from(image.data[0].b64_json, "base64").subarray(1, 4).toString("latin1");
const speech = Buffer.from(await (await client.audio.speech.create({ model: "tts-1", voice: "alloy", input: "hi", response_format: "wav" })).arrayBuffer());
out.speech = speech.subarray(0, 4).toString("latin1");
const file = await toFile(Buffer.from("not really audio"), "order.mp3");
out.transcript = (await client.audio.transcriptions.create({ model: "whisper-1", file })).text;

// A scripted failure arrives as the SDK's typed error, with OpenAI's code and the request id.
try {
  await client.chat.completions.create({ model, messages: user("flaky") });
  out.failure = null;
} catch (error) {
  out.failure = {
    rateLimit: error instanceof OpenAI.RateLimitError,
    status: error.status,
    code: error.code,
    type: error.type,
    requestId: error.requestID,
  };
}
out.recovered = (await client.chat.completions.create({ model, messages: user("flaky") })).choices[0].message.content;

console.log(JSON.stringify(out));
