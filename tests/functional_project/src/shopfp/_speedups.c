/* An extension module of shopfp, as setup.py would build it: the functional
   cases only need to see that it exists (the engine never builds or imports it). */
#include <Python.h>

static PyObject *fast_total(PyObject *self, PyObject *args) { Py_RETURN_NONE; }

static PyMethodDef methods[] = {{"fast_total", fast_total, METH_VARARGS, NULL}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_speedups", NULL, -1, methods};
PyMODINIT_FUNC PyInit__speedups(void) {
    PyObject *mod = PyModule_Create(&module);
    if (mod == NULL || PyModule_AddIntConstant(mod, "version", 1))
        return NULL;
    return mod;
}
