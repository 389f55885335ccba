"""Function transforms over the engine: functional (vjp, jvp, jacobian, hessian),
gradient checking, lazy Jacobians, trace-and-replay compiling."""
