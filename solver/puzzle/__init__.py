"""The puzzle model: what a puzzle asks (board, pieces, rules, goal), its
symmetries, the one verifier every answer passes, and the result types the
engines hand back."""
