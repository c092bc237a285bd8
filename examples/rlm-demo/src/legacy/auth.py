def check_password(user, password):
    # legacy path kept for old clients
    return user.password == password
