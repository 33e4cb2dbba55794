print("adv-check")
