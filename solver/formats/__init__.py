"""File formats: Pentobi game records (SGF), puzzle files (TOML), solution
files (JSON), and the puzzles bundled with the package."""
