"""Rule families. Each module declares its rules (in ``mockpolicy.rules``) and a
``check(analysis)`` that yields their findings."""
