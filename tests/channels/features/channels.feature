Feature: A group bot thanks boosters and answers when summoned as a guest (the channel steps)

  Background:
    Given the bot "python tests/channels/channel_bot.py" is running
    And a group "Club" with bob and the bot
    And the bot is an administrator of "Club"

  Scenario: A boost is thanked, its removal noticed
    When bob boosts "Club"
    Then the bot replies "Thanks for the boost, Bob!"
    When bob takes back his boosts of "Club"
    Then the bot replies "Bob left us."

  Scenario: Summoned into a group it is not in, the bot answers there
    Given a group "Friends" with bob
    When alice summons the bot in "Friends" with "help us"
    Then the bot replies "At your service, Alice."

  Scenario: A suggested post is published in the channel
    Given a channel "News"
    And the bot is an administrator of "News"
    When alice suggests the post "Our picnic" to "News"
    Then "News" shows the post "Our picnic"
