"""The rule IDs of RULES.md. Every event cites one of them."""

RULE_IDS: frozenset[str] = frozenset(
    [f"M{i}" for i in range(1, 13)]
    + [f"E{i}" for i in range(1, 11)]
    + [f"G{i}" for i in range(1, 5)]
    + [f"R{i}" for i in range(1, 5)]
)
