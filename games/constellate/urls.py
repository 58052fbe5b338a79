
app_name = "constellate"

urlpatterns: list = []
