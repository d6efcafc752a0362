"""``python -m polytile``: the same as the ``polytile`` command."""

from polytile.cli import main

if __name__ == "__main__":
    main()
