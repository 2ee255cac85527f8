"""The ``mythos`` command line and the terminal client. Outside the service's core: nothing in the service imports
it. ``mythos run`` and ``mythos cluster`` start the stacks of deploy/stacks/, imported only when asked for."""
