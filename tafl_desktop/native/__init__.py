"""Placeholder until the rules layer's bridge lands (merge: take the rules layer's file)."""
