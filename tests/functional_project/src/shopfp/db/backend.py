def get_backend():
    return Connection()


class Connection:
    def get_order(self, order_id):
        return {"id": order_id}
