"""Take-away as a polytile CLI game: the example of ``docs/architecture.md``'s guide."""
