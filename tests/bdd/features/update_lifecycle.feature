Feature: The offline Telegram stand preserves update and preview lifetimes
  Updates wait until the bot confirms them, and previews (drafts) live 30 seconds after their last
  revision, on the stand's clock, which these scenarios move instead of waiting.

  Scenario: Changing a subscription preserves an already queued message
    Given the person said "hello"
    When the bot subscribes to callback queries only
    Then the bot's next poll carries the message "hello"

  Scenario: A rich preview disappears after its lifetime
    Given the bot streams rich draft 1 saying "Thinking about it"
    Then the chat shows 1 preview
    When 30 seconds pass without a revision
    Then the chat shows 0 previews

  Scenario: The person stops a streamed draft
    Given the bot streams rich draft -7 saying "Counting sheep" with a Stop button
    When the person presses Stop
    Then the bot's next poll carries a stopped generation of draft -7 in private chat 4242
    And the chat shows 0 previews

  Scenario: An answer streams through drafts and ends as a message
    Given the person said "tell me a story"
    When the bot streams the draft 42 as "Once", "Once upon", "Once upon a time"
    And the bot sends the message "Once upon a time."
    Then the history of draft 42 shows the texts "Once", "Once upon", "Once upon a time"
    And the chat transcript is:
      """
      [1] alice: tell me a story
      [2] bot: Once upon a time.
      """
