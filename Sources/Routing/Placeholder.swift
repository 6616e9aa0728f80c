enum RoutingPlaceholder {}
