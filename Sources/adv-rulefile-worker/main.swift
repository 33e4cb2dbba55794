print("w")
