// Callback-cost benchmark (stub).
print("jackwave-bench: not yet")
