Feature: A group bot and a shop (the group, join and payment steps)

  Background:
    Given the bot "python tests/bdd/club_bot.py" is running
    And a group "Club" with bob, carol and the bot
    And the bot is an administrator of "Club"

  Scenario: A join is welcomed, a ban is announced after its service line
    When dave joins "Club"
    Then the bot replies "Welcome, Dave!"
    And dave is a member of "Club"
    When alice sends "/ban dave" in "Club"
    Then the bot replies "Banned Dave."
    And dave is banned from "Club"
    And the transcript is:
      """
      [1] * alice created the supergroup
      [2] * alice added bob
      [3] * alice added carol
      [4] * alice added tgfake_bot
      [5] * dave joined
      [6] bot: Welcome, Dave!
      [7] alice: /ban dave
      [8] * bot removed dave
      [9] bot: Banned Dave.
      """

  Scenario: The service line itself, and people the owner moves
    When dave joins "Club"
    And alice sends "/ban dave" in "Club"
    Then the bot posts the service message "* bot removed dave"
    When alice adds erin to "Club"
    And alice restricts erin in "Club"
    Then erin is restricted in "Club"
    When alice removes bob from "Club"
    And carol leaves "Club"
    Then bob is gone from "Club"
    And carol is gone from "Club"
    And the bot is an administrator of "Club"
    And alice is the owner of "Club"

  Scenario: A Stars purchase
    When alice sends "/buy"
    Then the bot sends an invoice for "Boost"
    When alice pays the invoice
    Then the payment is paid
    And the bot replies "Thanks for the boost!"
