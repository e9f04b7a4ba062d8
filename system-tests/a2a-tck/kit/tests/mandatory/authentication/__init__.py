"""
Mandatory Authentication Tests

This module contains tests for mandatory authentication requirements as specified
in the A2A v0.3.0 specification Section 4 (Authentication and Authorization).

These tests verify that when authentication is declared in an Agent Card,
it is properly enforced according to the specification.
"""
