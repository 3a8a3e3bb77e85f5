Feature: The dialog bot talks through a language model
  A regression suite for examples/dialogbot against the stand's scripted model, which runs
  examples/dialogbot/script.json (the stand is started with --llm --llm-script).

  Background:
    Given the bot is running
    And alice sent "/new" and got a reply

  Scenario: The greeting comes from the model
    When alice sends "hello"
    Then the bot replies "Hello! I am Dialogbot. Ask me about the weather."
    And the bot showed typing
    And the model was called 1 time
    And the model was called with a system prompt containing "You are Dialogbot"

  Scenario: A weather question runs the local tool
    When alice sends "What is the weather in Paris?"
    Then the bot replies "It is sunny in Paris today, 21 °C."
    And the model called the tool "get_weather"
    And the model was called 2 times
    And the model was last called with a message containing "Paris: sunny, 21 °C"

  Scenario: A long answer is streamed into the chat
    When alice sends "Tell me a story"
    Then the bot replies "Once upon a time a bot streamed its answer into a chat, one word after another, until the story was told."
    And the bot streamed its answer
    And the bot sent no further message

  Scenario: The provider answers 429, the bot waits and gets the answer
    When alice sends "Are you flaky today?"
    Then the bot replies "Sorry for the wait: the provider is back."
    And the model answered with status 429 once

  Scenario: Telegram's flood control on the answer, then recovery
    Given sendMessage fails with 429 retry after 1, once
    When alice sends "hello"
    Then the bot replies "Hello! I am Dialogbot. Ask me about the weather."
    And the outbox has 1 sendMessage call with status 429

  Scenario: A provider outage gets a short apology
    When alice sends "Is there an outage?"
    Then the bot replies "Sorry, I cannot answer right now: the model is unavailable. Please try again in a minute."

  Scenario: The bot remembers the conversation
    When alice sends "My name is Alice"
    Then the bot replies "Nice to meet you! I will remember that."
    When alice sends "What is my name?"
    Then the bot replies "You told me your name a moment ago."
    And the model was called 2 times
    And the model was last called with a message containing "My name is Alice"
