"""A test runner the package ships to its users (as ``django.test`` does): code under test."""
