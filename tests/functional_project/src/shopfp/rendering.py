"""Renders a line, through a customisation module when one is installed."""


def _plain_render(words):
    return " ".join(words)


try:  # the customisation ships separately; this package has no such module
    from shopfp.customised.rendering import render_words
except ImportError:
    render_words = _plain_render

try:
    from shopfp.customised.rendering import render_title
except ImportError:
    pass


def render(words):
    return render_words(words)
