"""Write paths of the LTI app, one module per sub-domain; each service owns its transaction.

- ``launches``: accept a checked launch, answer a deep-linking request, purge used nonces;
- ``scores``: record a learner's scores after an attempt and send each one to its platform;
- ``roster``: store a context's roster from the platform;
- ``platform``: the timed session and the service connector the calls to a platform share.
"""
