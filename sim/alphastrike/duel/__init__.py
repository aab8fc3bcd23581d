"""The Alpha Strike ``duel`` model: side against side to destruction (reference-as-combat)."""
