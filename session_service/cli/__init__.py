"""The ``mythos`` command line and what it starts: the terminal client and the development and cluster stacks.
Outside the service's core: nothing in the service imports it."""
