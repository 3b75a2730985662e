"""Reference solutions, kept apart from the exercises so a class can hide them.

Keys match the exercises (notebook.number). Each value is the code a learner would write;
tests execute every one of them and check that it passes its exercise.
"""

SOLUTIONS: dict[str, str] = {}
