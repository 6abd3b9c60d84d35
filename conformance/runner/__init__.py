"""The formwire conformance runner (see conformance/PROTOCOL.md and vectors/SCHEMA.md). Standard library only."""
