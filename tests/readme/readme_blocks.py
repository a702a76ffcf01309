"""The code blocks of README.md that tests run: each follows a `<!-- readme-block: NAME -->` line."""
import re


def readme_block(readme_path, name):
    """The text of the fenced block after the marker `<!-- readme-block: NAME -->`."""
    text = open(readme_path, encoding="utf-8").read()
    m = re.search(r"<!-- readme-block: " + re.escape(name) + r" -->\n```[^\n]*\n(.*?)\n```", text, re.S)
    if not m:
        raise SystemExit(f"README.md has no `<!-- readme-block: {name} -->` followed by a fenced block")
    return m.group(1) + "\n"
