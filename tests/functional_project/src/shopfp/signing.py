"""Signatures: one function reads sha256 imported by value, one through hashlib."""
import hashlib
from hashlib import sha256


def digest_by_value(data):
    return sha256(data).hexdigest()


def digest_through_module(data):
    return hashlib.sha256(data).hexdigest()
