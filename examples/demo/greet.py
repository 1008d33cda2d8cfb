"""Prints a greeting for the name given on the command line."""
import sys


def greeting(name):
    return f"Hello, {name}!"


def main(argv):
    name = argv[1] if len(argv) > 1 else "world"
    print(greeting(name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
