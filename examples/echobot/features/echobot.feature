Feature: The echo bot answers, shows buttons and rides out flood control
  A regression suite for examples/echobot. Every step talks to the stand over HTTP and waits on it,
  so the same file tests a bot in any language: point BOT_CMD at it.

  Background:
    Given the bot is running

  Scenario: The greeting shows a keyboard
    When alice sends "/start"
    Then the bot replies "Hi! Send me anything, or tap a button."
    And the bot shows the keyboard [Ping] [Help]

  Scenario: Text is echoed as a reply
    When alice sends "hello"
    Then the bot replies "You said: hello"
    And the bot sent no further message

  Scenario: Ping answers the tap and edits the message
    Given alice sent "/start" and got a reply
    When alice taps "Ping"
    Then the tap was answered with "Pong!"
    And the bot edits the message to "Pong."
    And the transcript is:
      """
      [1] alice: /start
      [2] bot: Pong.
      """

  Scenario: Help keeps the keyboard
    Given alice sent "/start" and got a reply
    When alice taps "Help"
    Then the tap was answered
    And the bot edits the message to "I repeat what you write. In a group, mention me. Tap Ping to see that I am alive."
    And the transcript is:
      """
      [1] alice: /start
      [2] bot: I repeat what you write. In a group, mention me. Tap Ping to see that I am alive.
          [Ping] [Help]
      """

  Scenario: Flood control on sendMessage, then recovery
    Given sendMessage fails with 429 retry after 1, once
    When alice sends "under flood control"
    Then the bot replies "You said: under flood control"
    And the outbox has 1 sendMessage call with status 429
    And the outbox has 1 sendMessage call with status 200

  Scenario: In a group the bot answers only when mentioned
    When alice sends "talking among ourselves" in the group
    Then the bot sent no further message
    When bob sends "echo this" in the group, mentioning the bot
    Then the bot replies "You said: echo this"
