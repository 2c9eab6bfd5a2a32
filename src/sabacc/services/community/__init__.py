"""The community layer's rules, apart from any server: usernames and passwords
(:mod:`.accounts`), what a finished game adds to each player's stats (:mod:`.stats`) and the
ratings (:mod:`.ratings`)."""
